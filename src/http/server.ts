// The HTTP server that carries the Express app. Express gives every request and response its own
// prototype on arrival (Object.setPrototypeOf(req, app.request), the same for res). V8 pays for
// that: the objects get new hidden classes, which live in the old generation, so each request
// left about 7 KB there for the next full collection (measured with --trace-gc-nvp; a bare
// node:http server leaves none), and full collections are what stalled the loop at 100,000 links.
// Node can build requests and responses with our own constructors (createServer's IncomingMessage
// and ServerResponse options): when they already carry the app's prototypes, Express's
// setPrototypeOf finds nothing to change.
//
// A client may half-close its socket once its request is sent (FIN: done sending, still reading).
// Node's server, by default (`httpAllowHalfOpen` false), ends the socket at that FIN, so an answer
// that is not written yet (every answer that waits for Redis) is lost. With it true, Node marks the
// response in flight as the connection's last one and closes the socket once it is sent (no
// leak); a FIN with no request in flight still ends the socket at once. Node has no createServer
// option for it: it is a property of the server (lib/_http_server.js, socketOnEnd; Node 18-24).
//
// Timeouts (--headers-timeout, --request-timeout): Node answers 408 and closes a connection whose
// request head or whole request is late, but only once a first byte has arrived; a connection
// that sends nothing at all is never closed by it (Node 20-24), so a client could hold file
// descriptors forever. closeSilentConnections closes those after the head's timeout.
// Its watch on a socket ends at the socket's first request, not at its close: a 'close' listener
// kept for the connection's life made every response's own 'close' listener (Node adds and removes
// one per response) an array allocated on the socket, and each request's objects then outlived a
// young-generation collection: 9.5 KB promoted per create, GC 27 µs a create instead of 8
// (--trace-gc-nvp and the sampling heap profiler, at 1,500 creates/s).
import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { answerTransportErrors } from './transport-errors.js';

type Initialise = (this: object, ...args: unknown[]) => void;

/**
 * How long a kept-alive connection may wait idle for the client's next request (Node's default: 5 s).
 * A client reuses an idle connection until just before the time the server announces
 * (`Keep-Alive: timeout=N`; fetch's undici until N − 2 s), and its own clock decides. When the
 * process that holds the client (a test, with the mock in it) gets no CPU for longer than that
 * time between two requests, both clocks run out together: the client sends its request on the
 * connection the server closes at once, and a POST fails with ECONNRESET (undici does not retry
 * it). A loaded 2-core machine froze such a process for over 5 s: proxy-mock.test.ts's contract
 * suite failed so (issue 37), and freezing a process 5 times for 5-7 s (SIGSTOP) between
 * sequential POSTs gave 2 resets at 5 s, none at 30 s. Stopping the mock still closes idle
 * connections at once (startup.ts).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;

export interface ServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** `handler`: what takes each request (default `app`); its requests and answers are made on `app`'s prototypes. */
export function createHttpServer(app: Express, timeouts?: ServerTimeouts, handler: RequestListener = app): Server {
  const server = createPrototypedServer(app, timeouts ? nodeTimeouts(timeouts) : {}, handler);
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  answerTransportErrors(server);
  if (timeouts) closeSilentConnections(server, timeouts.headersTimeoutMs);
  return server;
}

function nodeTimeouts({ headersTimeoutMs, requestTimeoutMs }: ServerTimeouts): ServerOptions {
  // Node checks its timeouts every connectionsCheckingInterval (30 s by default): often enough
  // that a late connection is closed within about a quarter of its timeout past it.
  const connectionsCheckingInterval = Math.min(30_000, Math.max(100, Math.round(headersTimeoutMs / 4)));
  return { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval };
}

/** A connection with not one byte read once the head's timeout has passed is closed. */
function closeSilentConnections(server: Server, headersTimeoutMs: number): void {
  server.on('connection', (socket: WatchedSocket) => {
    const timer = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), headersTimeoutMs);
    timer.unref();
    const stopWatching = (): void => {
      socket[STOP_WATCHING] = undefined;
      clearTimeout(timer);
      socket.removeListener('close', stopWatching);
    };
    socket[STOP_WATCHING] = stopWatching;
    socket.once('close', stopWatching);
  });
}

const STOP_WATCHING = Symbol('stopWatchingForSilence');
type WatchedSocket = Socket & { [STOP_WATCHING]?: () => void };

/** Called as each request is made: the first one of a connection ends closeSilentConnections' watch. */
function firstRequestSeen(socket: WatchedSocket): void {
  socket[STOP_WATCHING]?.();
}

function createPrototypedServer(app: Express, options: ServerOptions, handler: RequestListener): Server {
  // Node's two constructors are plain functions that can initialise an object they are given
  // (Reflect.construct would also work, but measured 3× slower). Were they ever classes, this
  // falls back to the plain server: slower, never broken.
  if (isClass(IncomingMessage) || isClass(ServerResponse)) {
    const server = createServer(options, handler);
    server.prependListener('request', (req: IncomingMessage) => firstRequestSeen(req.socket));
    return server;
  }
  const initRequest = IncomingMessage as unknown as Initialise;
  const initResponse = ServerResponse as unknown as Initialise;
  const AppRequest = constructorWithRoom(app.request, (made, args) => {
    firstRequestSeen(args[0] as WatchedSocket);
    initRequest.apply(made, args);
  });
  const AppResponse = constructorWithRoom(app.response, (made, args) => {
    initResponse.apply(made, args);
    (made as { locals?: object }).locals = new (Locals as unknown as new () => object)();
  });
  return createServer(
    {
      ...options,
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    handler,
  );
}

/**
 * A constructor of objects on `prototype`, made by `init`, with room for their properties.
 * V8 sizes the objects a function constructs by the assignments to `this.<name>` written in its
 * body, counted whether they run or not (2 when there are none, plus 8), and trims the room left
 * unused once it has made a few objects (slack tracking). A constructor that only calls Node's gave
 * each request and response room for 10: Node's constructors add ~35 properties, Express, the
 * router and the validator ~10 more, and V8 turns an object whose overflow of properties added by a
 * computed key (Node's symbols) passes 12 into a dictionary, for good. So every request and
 * response was a hash table (%HasFastProperties false), and each of their property reads and adds
 * a hash-table operation. The 64 assignments below never run; they only give the room (a response
 * ends a create with 46 own properties, a request with 37). Callgrind: 0.887x the instructions of a
 * create, 0.931x of a read; bare Express on this server 0.844x (bench/create-cost.md, seventh pass).
 */
function constructorWithRoom(prototype: object, init: (made: object, args: unknown[]) => void): Initialise {
  function WithRoom(this: Room, ...args: unknown[]): void {
    init(this, args);
    if (args.length < 0) {
      this.r0 = this.r1 = this.r2 = this.r3 = this.r4 = this.r5 = this.r6 = this.r7 = this.r8 = this.r9 = undefined;
      this.r10 = this.r11 = this.r12 = this.r13 = this.r14 = this.r15 = this.r16 = this.r17 = this.r18 = this.r19 = undefined;
      this.r20 = this.r21 = this.r22 = this.r23 = this.r24 = this.r25 = this.r26 = this.r27 = this.r28 = this.r29 = undefined;
      this.r30 = this.r31 = this.r32 = this.r33 = this.r34 = this.r35 = this.r36 = this.r37 = this.r38 = this.r39 = undefined;
      this.r40 = this.r41 = this.r42 = this.r43 = this.r44 = this.r45 = this.r46 = this.r47 = this.r48 = this.r49 = undefined;
      this.r50 = this.r51 = this.r52 = this.r53 = this.r54 = this.r55 = this.r56 = this.r57 = this.r58 = this.r59 = undefined;
      this.r60 = this.r61 = this.r62 = this.r63 = undefined;
    }
  }
  WithRoom.prototype = prototype;
  return WithRoom as unknown as Initialise;
}

/**
 * Each response's res.locals, made before Express would make it `Object.create(null)`: V8 keeps an
 * object made that way as a dictionary, so each of the ~10 names a create keeps there (the
 * operation, the account, the scenario, the body's size and verdict, the answer...) was a hash-table
 * insert, with its growth, and each of the ~40 reads a hash probe. Made by this constructor, it is
 * a fast-mode object with room for 16 names (its body's assignments never run, as in
 * constructorWithRoom), on a frozen prototype without names: like Express's, it inherits nothing
 * (`'constructor' in res.locals` is false), and Express leaves a response's locals as it finds them.
 */
function Locals(this: Record<`l${number}`, undefined>): void {
  // Never true: it is only called with new.
  if (new.target === undefined) {
    this.l0 = this.l1 = this.l2 = this.l3 = this.l4 = this.l5 = this.l6 = this.l7 = undefined;
    this.l8 = this.l9 = this.l10 = this.l11 = this.l12 = this.l13 = this.l14 = this.l15 = undefined;
  }
}
Locals.prototype = Object.freeze(Object.create(null) as object);

/** The names constructorWithRoom's body assigns (never at run time). */
type Room = Record<`r${number}`, undefined>;

function isClass(constructor: unknown): boolean {
  return Function.prototype.toString.call(constructor).startsWith('class');
}
