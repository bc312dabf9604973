// A start-up step that reads what one option names (the --fixtures file, the --db, the --scenarios
// directory, the --ready-file): its refusal is prefixed with that option as the user set it,
// `MOCK_FIXTURES: cannot load fixtures …`, as config.ts's refusals of a value are. The step's own
// message names the file, not the option; someone who set a variable in a CI file or a compose
// file, not on a command line, would otherwise have to guess which one to change.
import { sourceOf, type Config } from './config.js';
import { isRefusal, StartupError } from './startup-error.js';

/**
 * Runs `step` (its value or its promise), a refusal of it named by the option of `flag`; any other
 * error as it is. `only`: the refusals (by name) that are the option's, when the step makes others.
 */
export function namingOption<T>(config: Config, flag: string, step: () => T, only?: readonly string[]): T {
  const name = (error: unknown): never => {
    const named = isRefusal(error) && (only === undefined || only.includes(error.name));
    throw named ? new StartupError(`${sourceOf(config, flag)}: ${error.message}`) : error;
  };
  try {
    const result = step();
    return (result instanceof Promise ? result.catch(name) : result) as T;
  } catch (error) {
    return name(error);
  }
}
