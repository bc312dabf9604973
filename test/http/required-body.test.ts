// A request with no body at all, for an operation whose body the contract requires, is refused in
// front of the validator (src/http/validator-fixes/required-body.ts): the validator itself refuses
// it only when the body's schema lists required fields, so updateLink's went through to a 500.
// The refusal must read as the validator's own (compared here with what it says for createLink,
// whose schema lists some), and the contract's `required` is what decides, not the operation's name.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type express from 'express';
import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/core/contract-types.js';
import { toApiError, type HttpLikeError } from '../../src/http/errors.js';
import { contractValidator } from '../../src/http/validator.js';
import { missingBodyRefusal } from '../../src/http/validator-fixes/required-body.js';
import { contract, DEMO } from '../helpers/test-app.js';
import { refusalCatcher } from '../helpers/validator-app.js';

const NO_BODY = 'the request has no body; send a JSON object';

describe('a required request body that is missing', () => {
  it("is refused in front of the validator exactly as the validator refuses createLink's", async () => {
    const [early, ...validator] = contractValidator(contract.document);
    const ours = await errorFrom([early as RequestHandler], 'createLink');
    const theirs = await errorFrom(validator, 'createLink');
    expect({ ...ours, message: undefined }).toEqual({ ...theirs, message: undefined });
    expect(toApiError(ours)).toEqual(toApiError(theirs));
    expect(toApiError(ours).errorDescription).toBe(NO_BODY);
  });

  it('is refused for updateLink, which the validator alone lets through', async () => {
    const [early, ...validator] = contractValidator(contract.document);
    // The validator alone passes the request on; what it may refuse then is the harness's own answer (a 500 of the response side).
    const alone = await errorFrom(validator, 'updateLink').catch(() => undefined);
    expect(alone?.status).not.toBe(400);
    expect(toApiError(await errorFrom([early as RequestHandler], 'updateLink')).errorDescription).toBe(NO_BODY);
  });

  it('is decided by the contract and the content type: an operation whose body is optional, a body that is there, or a request that is not JSON goes on', () => {
    const document = structuredClone(contract.document) as OpenApiDocument & { paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>> };
    const put = document.paths['/links/{id}']?.['put'];
    if (!put?.requestBody) throw new Error('openapi.yaml has no updateLink body');
    put.requestBody.required = false;
    const refusal = missingBodyRefusal(document);
    const locals = (operationId: string) => ({ locals: { operationId } }) as unknown as express.Response;
    const request = (body: unknown, type: string | null = 'application/json') => ({ body, path: '/links/x', headers: type === null ? {} : { 'content-type': type } }) as unknown as express.Request;
    expect(refusal(request(undefined), locals('updateLink'))).toBeUndefined();
    expect(refusal(request(undefined), locals('createLink'))).toBeDefined();
    expect(refusal(request({}), locals('createLink'))).toBeUndefined();
    // A body of no bytes (body-parser's {}) is no body; a {} that was sent is a body.
    const read = (operationId: string, requestBodyBytes: number) => ({ locals: { operationId, requestBodyBytes } }) as unknown as express.Response;
    expect(refusal(request({}), read('createLink', 0))).toBeDefined();
    expect(refusal(request({}), read('createLink', 2))).toBeUndefined();
    expect(refusal(request({}), read('updateLink', 0))).toBeUndefined();
    expect(refusal(request(undefined), locals('deleteLink'))).toBeUndefined();
    expect(refusal(request(undefined), locals('no such operation'))).toBeUndefined();
    // Another content type, or none: the validator's refusal of the media type is the one a client reads.
    expect(refusal(request(undefined, 'application/json; charset=utf-8'), locals('createLink'))).toBeDefined();
    expect(refusal(request(undefined, 'text/plain'), locals('createLink'))).toBeUndefined();
    expect(refusal(request(undefined, null), locals('createLink'))).toBeUndefined();
  });
});

/** What `steps` hand to next() for a request of `operationId` with a JSON content type and no body at all (no Content-Length, no Transfer-Encoding). */
async function errorFrom(steps: RequestHandler[], operationId: 'createLink' | 'updateLink'): Promise<HttpLikeError> {
  const { app, refusal } = refusalCatcher(steps, operationId);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const line = operationId === 'createLink' ? 'POST /links' : 'PUT /links/lnk_1';
    socket.write(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${DEMO}\r\ncontent-type: application/json\r\nConnection: close\r\n\r\n`);
    socket.resume();
    await once(socket, 'close');
  } finally {
    server.close();
  }
  return refusal();
}
