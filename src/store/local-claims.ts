// What the requests of one process have claimed and not yet stored: places under an account's
// link limit and slugs in a domain. A create claims both before its later checks run (D19) and
// stores its link after them; meanwhile other requests run, and must count these claims too.

export class LocalClaims {
  /** Account id → places reserved, not yet links. */
  private readonly slots = new Map<string, number>();
  /** Domain id → slug → the id of the link that claimed it. */
  private readonly slugs = new Map<string, Map<string, string>>();

  /** One more place if the account's links and reservations leave one under the limit. */
  reserveSlot(accountId: string, stored: number, limit: number): boolean {
    const reserved = this.slots.get(accountId) ?? 0;
    if (stored + reserved >= limit) return false;
    this.slots.set(accountId, reserved + 1);
    return true;
  }

  releaseSlot(accountId: string): void {
    const reserved = this.slots.get(accountId) ?? 0;
    if (reserved <= 1) this.slots.delete(accountId);
    else this.slots.set(accountId, reserved - 1);
  }

  claimSlug(domainId: string, slug: string, linkId: string): boolean {
    let claimed = this.slugs.get(domainId);
    if (!claimed) this.slugs.set(domainId, (claimed = new Map()));
    if (claimed.has(slug)) return false;
    claimed.set(slug, linkId);
    return true;
  }

  /** Only the claim of that link: another's claim of the same slug stays. */
  releaseSlug(domainId: string, slug: string, linkId: string): void {
    const claimed = this.slugs.get(domainId);
    if (claimed?.get(slug) !== linkId) return;
    claimed.delete(slug);
    if (claimed.size === 0) this.slugs.delete(domainId);
  }

  isSlugClaimed(domainId: string, slug: string): boolean {
    return this.slugs.get(domainId)?.has(slug) ?? false;
  }

  clear(): void {
    this.slots.clear();
    this.slugs.clear();
  }
}
