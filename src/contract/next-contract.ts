// What a contract FILE changes for the suite (issue 38): FILE compared with the shipped openapi.yaml
// by the mock's own classification (src/core/contract-classes.ts), so the suite checks exactly what
// the mock serves differently: the operations FILE removes (their checks are skipped, not failed),
// the fields and reads it adds (cases-next*.ts).
import { classifyContract, type ContractClasses, type ServedOperation } from '../core/contract-classes.js';
import type { OpenApiDocument } from '../core/contract-types.js';
import { Skipped } from './check-failures.js';
import { readContract } from './package-files.js';

export interface NextContract {
  /** FILE as given, for the reasons of skipped checks. */
  file: string;
  document: OpenApiDocument;
  classes: ContractClasses;
}

export function nextContractOf(file: string, document: OpenApiDocument): NextContract {
  return { file, document, classes: classifyContract(readContract().document, document) };
}

/** The operations FILE removes. */
export function goneOperations(next: NextContract | undefined): ServedOperation[] {
  return next?.classes.operations.filter((operation) => operation.served === 'gone') ?? [];
}

/** Throws Skipped when FILE removes the operation a check is about to call. */
export function skipIfGone(next: NextContract | undefined, operationId: string): void {
  if (!goneOperations(next).some((operation) => operation.operationId === operationId)) return;
  throw new Skipped(`skipped: --contract ${next!.file} removes ${operationId}, which this check calls (not the server's fault)`);
}
