// Reads every scenario file of a directory (.yaml, .yml, .json) into a ScenarioSet. All or
// nothing: one broken file refuses the whole set, with the file, the rule and the reason, so a
// watcher can keep the last good set.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '../contract/regular-file.js';
import type { Scenario } from '../core/scenarios.js';
import type { ContractRules } from './contract-rules.js';
import { ScenarioError, ScenarioParser } from './parse-scenario.js';
import { shapeValidator } from './scenario-shape.js';
import { parseScenarioYaml } from './scenario-yaml.js';

const SCENARIO_FILE = /\.(ya?ml|json)$/;
const SCHEMA_FILE = 'scenario.schema.json';

export function loadScenarioDir(dir: string, parser: ScenarioParser): Scenario[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => SCENARIO_FILE.test(file) && file !== SCHEMA_FILE).sort();
  } catch (error) {
    throw new ScenarioError(`cannot read scenarios directory ${dir}: ${(error as Error).message}`);
  }
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const scenario = parser.parse(readScenarioFile(path), path);
    const clash = scenarios.find((other) => other.name === scenario.name);
    if (clash) throw new ScenarioError(`${path}: scenario name '${scenario.name}' is also used by ${clash.source}`);
    scenarios.push(scenario);
  }
  return scenarios;
}

function readScenarioFile(path: string): unknown {
  let text: string;
  try {
    text = readRegularFileSync(path);
  } catch (error) {
    throw new ScenarioError(`${path}: ${(error as Error).message}`);
  }
  try {
    return path.endsWith('.json') ? JSON.parse(text) : parseScenarioYaml(text);
  } catch (error) {
    throw new ScenarioError(`${path}: cannot parse: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The schema ships with the package (scenarios/ of the package), whatever directory is loaded. */
export function readScenarioSchema(dir: string): object {
  return JSON.parse(readScenarioSchemaText(dir)) as object;
}

function readScenarioSchemaText(dir: string): string {
  return readFileSync(join(dir, SCHEMA_FILE), 'utf8');
}

/** A loader bound to the contract and the package's schema: dir → scenarios, or a ScenarioError. */
export function scenarioLoader(contract: ContractRules, schemaDir: string): (dir: string) => Scenario[] {
  const parser = new ScenarioParser(shapeValidator(readScenarioSchemaText(schemaDir)), contract);
  return (dir) => loadScenarioDir(dir, parser);
}
