// Variety mode's settings as the core sees them: one setting (global or one API key's) and the
// port a shared store implements (src/store/redis/redis-variety.ts) so that instances follow each
// other's changes (src/variety/switch.ts).

/** A setting as the admin API shows it: global (`apiKey` null) or one key's. */
export interface VarietySetting {
  seed: number;
  apiKey: string | null;
  /** Exactly these dimensions, or null: the seed picks among all. */
  only: string[] | null;
  /** These dimensions never, or null. */
  except: string[] | null;
}

export interface SharedVarietySettings {
  /** The change counter only (null: never changed): what an instance polls. */
  version(): Promise<string | null>;
  all(): Promise<{ version: string | null; settings: VarietySetting[] }>;
  set(setting: VarietySetting): Promise<void>;
  clear(apiKey: string | null): Promise<void>;
}
