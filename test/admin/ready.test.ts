// D35: GET /__admin/ready tells a probe whether the mock can serve, without the admin token and
// without any data: 200 or 503 and an empty body. The admin token still guards every other route,
// and the Host guard of a token-less mock still stands (a probe reaches a pod's IP only when the
// mock listens off loopback, which needs a token; with one, any Host is answered).
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
import { expectAdminResponse } from './admin-contract.js';

const TOKEN = 's3cret';
// What a kubelet's httpGet probe sends: Host is the pod's IP and the container port.
const POD_HOST = '10.244.1.17:4010';

describe('GET /__admin/ready', () => {
  it('answers 200 without the admin token, with an empty body, and as the admin contract says', async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    const res = await t.request.get('/__admin/ready');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expectAdminResponse(res, 'GET', '/__admin/ready');
    // The token still guards the rest.
    expect((await t.request.get('/__admin/health')).status).toBe(401);
  });

  it("answers a kubelet probe: Host the pod's IP, no token, on a mock started with a token", async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    const res = await t.request.get('/__admin/ready').set('Host', POD_HOST).set('User-Agent', 'kube-probe/1.31');
    expect(res.status).toBe(200);
  });

  it('leaks nothing: no version, counts, keys or scenario in the body or the headers', async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    await t.request.put('/__admin/scenario').set('x-admin-token', TOKEN).send({ name: 'slow' });
    const res = await t.request.get('/__admin/ready');
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('0');
    const headers = JSON.stringify(res.headers);
    for (const secret of ['test', 'slow', 'demo-key', TOKEN]) expect(headers).not.toContain(secret);
  });

  it('HEAD answers the same status with no body', async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    const res = await t.request.head('/__admin/ready');
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
  });

  it('a token-less mock keeps its Host guard: a foreign Host is a 403, loopback names are answered', async () => {
    const t = await createTestApp();
    expect((await t.request.get('/__admin/ready').set('Host', POD_HOST)).status).toBe(403);
    expect((await t.request.get('/__admin/ready').set('Host', '127.0.0.1:4010')).status).toBe(200);
  });

  it('only GET and HEAD: a POST is a 405', async () => {
    const t = await createTestApp({ adminToken: TOKEN });
    const res = await t.request.post('/__admin/ready').set('x-admin-token', TOKEN);
    expect(res.status).toBe(405);
  });
});
