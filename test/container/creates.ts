// Creates with the demo key against a mock in a container, as its clients would send them: one at
// a time, or several clients creating without pause until the mock stops answering (a stop, a
// kill), each outcome recorded: the new link's id on a 201, else the status (0: no answer at all).

export type CreateOutcome = { id: string } | { status: number };

export async function create(url: string, n: number): Promise<CreateOutcome> {
  try {
    const res = await fetch(`${url}/links`, {
      method: 'POST',
      headers: { 'x-api-key': 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl: `https://example.com/container/${n}`, domain: 'short.test', tags: [] }),
    });
    return res.status === 201 ? { id: ((await res.json()) as { id: string }).id } : { status: res.status };
  } catch {
    return { status: 0 };
  }
}

/** One create that must be acknowledged: the new link's id. */
export async function createLink(url: string, n: number): Promise<string> {
  const outcome = await create(url, n);
  if (!('id' in outcome)) throw new Error(`create answered ${outcome.status}, not 201`);
  return outcome.id;
}

/**
 * `clients` loops of creates, each ending at its first create not acknowledged or after
 * `perClient` creates (the bound). `outcomes` grows as they go; `done` gives them all.
 */
export function keepCreating(url: string, clients: number, perClient = 500): { outcomes: CreateOutcome[]; done: Promise<CreateOutcome[]> } {
  const outcomes: CreateOutcome[] = [];
  const client = async (first: number): Promise<void> => {
    for (let n = first; n < first + perClient; n++) {
      const outcome = await create(url, n);
      outcomes.push(outcome);
      if (!('id' in outcome)) return;
    }
  };
  const loops = Array.from({ length: clients }, (_, index) => client(1000 * (index + 1)));
  return { outcomes, done: Promise.all(loops).then(() => outcomes) };
}
