// The three API calls the toolkit tests make, as a client team's test would: plain fetch.
import type { CreateLinkRequest, Link } from '../../src/index.js';

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

async function send<T>(url: string, method: string, apiKey: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(url, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export function createLink(base: string, apiKey: string, request: Partial<CreateLinkRequest> = {}): Promise<Answer<Link & { errorDescription?: string; code?: string }>> {
  return send(`${base}/links`, 'POST', apiKey, { destinationUrl: 'https://example.com/toolkit', domain: 'short.test', tags: [], ...request });
}

export function updateLink(base: string, apiKey: string, id: string, destinationUrl: string): Promise<Answer<Link>> {
  return send(`${base}/links/${id}`, 'PUT', apiKey, { destinationUrl });
}

export function deleteLink(base: string, apiKey: string, id: string): Promise<Answer> {
  return send(`${base}/links/${id}`, 'DELETE', apiKey);
}
