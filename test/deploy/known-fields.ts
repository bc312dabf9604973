// What kubectl's strict field validation refuses and the schema validators let through: a field
// the Kubernetes API does not have (a typo such as `readinesProbe` is silently dropped by an API
// server that does not validate strictly). Each object is checked as a TypeScript object literal
// against kubernetes-models' own interfaces: TypeScript refuses a property a literal's type does
// not declare, at every depth. One in-memory program for all objects; nothing is written.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { Manifest } from './k8s-manifests.js';

const TYPES: Record<string, { module: string; name: string }> = {
  'apps/v1 Deployment': { module: 'kubernetes-models/apps/v1', name: 'IDeployment' },
  'apps/v1 StatefulSet': { module: 'kubernetes-models/apps/v1', name: 'IStatefulSet' },
  'v1 Service': { module: 'kubernetes-models/v1', name: 'IService' },
  'v1 ConfigMap': { module: 'kubernetes-models/v1', name: 'IConfigMap' },
  'v1 Secret': { module: 'kubernetes-models/v1', name: 'ISecret' },
  'networking.k8s.io/v1 NetworkPolicy': { module: 'kubernetes-models/networking.k8s.io/v1', name: 'INetworkPolicy' },
  'policy/v1 PodDisruptionBudget': { module: 'kubernetes-models/policy/v1', name: 'IPodDisruptionBudget' },
};

// Resolved from here, so the program finds kubernetes-models where Node does.
const ROOT = dirname(createRequire(import.meta.url).resolve('kubernetes-models/package.json'));

/** For each object, the properties TypeScript says its kind does not have ([] when none). */
export function unknownFields(objects: Manifest[]): string[][] {
  const files = new Map(
    objects.map((object, i) => {
      const type = TYPES[`${object.apiVersion} ${object.kind}`];
      if (!type) throw new Error(`${object.kind}: no type known for apiVersion ${object.apiVersion}`);
      return [join(ROOT, '..', '..', `__manifest_${i}.ts`), `import type { ${type.name} } from '${type.module}';\nexport const object: ${type.name} = ${JSON.stringify(object, null, 1)};\n`];
    }),
  );
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => (files.has(file) ? ts.createSourceFile(file, files.get(file) as string, language) : getSourceFile(file, language, ...rest));
  const program = ts.createProgram([...files.keys()], options, host);
  const names = [...files.keys()];
  return names.map((file) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))
      .map((message) => /'"?([^'"]+)"?' does not exist in type/.exec(message)?.[1] ?? message),
  );
}
