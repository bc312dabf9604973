// The admin API, same origin. When the mock was started with --admin-token, every call but the
// console's own files answers 401 without the x-admin-token header: the first 401 asks the page for
// the token (see onUnauthorized), which is then kept in this tab's sessionStorage only.

const TOKEN_KEY = 'shortlink-mock.admin-token';
const BASE = '/__admin';

let unauthorizedHandler = () => {};
// Fallback when sessionStorage is unavailable (privacy modes): the token lives as long as the page.
let memoryToken = null;

export function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

export function setToken(value) {
  try {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // sessionStorage unavailable: memoryToken below still holds it.
  }
  memoryToken = value || null;
}

/** Called with the error description whenever a call answers 401. */
export function onUnauthorized(handler) {
  unauthorizedHandler = handler;
}

export class AdminError extends Error {
  constructor(status, description) {
    super(description);
    this.status = status;
    this.unauthorized = status === 401;
  }
}

/** Calls the admin API; resolves with the JSON body (null for 204), throws an AdminError. */
export async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  const adminToken = token();
  if (adminToken) headers['x-admin-token'] = adminToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (error) {
    throw new AdminError(0, `The mock does not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { errorDescription: text };
    }
  }
  if (!response.ok) {
    const description = (data && data.errorDescription) || `${method} ${path} answered ${response.status}`;
    const error = new AdminError(response.status, description);
    if (error.unauthorized) unauthorizedHandler(description);
    throw error;
  }
  return data;
}

/** Query string from an object, skipping empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const enc = encodeURIComponent;
