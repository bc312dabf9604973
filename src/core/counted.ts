// A count with its noun, singular or plural, for the reports that count things (robustness,
// evolve): "1 consumer", "3 consumers", never "1 consumers".

/** `1 run`, `2 runs`: English plurals of the reports' nouns, which all take an s. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
