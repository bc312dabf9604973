// What an API key that names an account may look like: what a client can send in `x-api-key` and
// what the admin document's ApiKey schema allows (test/admin/api-key-shape.test.ts checks they agree).
// Read where a key is made an account: a provider state's, and an unknown key's under --accept-any-key
// (whose header may hold 16 KiB of anything, and each account made keeps its key).

export const API_KEY_SHAPE = { pattern: /^[!-~]{1,200}$/, says: 'visible ASCII without spaces, 1 to 200 characters' } as const;
