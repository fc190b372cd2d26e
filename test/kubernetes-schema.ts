import { execFileSync } from "node:child_process";
import path from "node:path";
import ts from "typescript";
import { parseAllDocuments } from "yaml";

// Offline validation of rendered manifests against the Kubernetes API's schemas, as the npm package kubernetes-models
// ships them (generated from Kubernetes' OpenAPI; @kubernetes-models/prometheus-operator from the operator's CRDs):
// its validators check types, formats, enums and required fields; its type declarations, through TypeScript's
// excess-property check, refuse a field the API does not have, which the OpenAPI schemas alone let through.

export const KUBECTL = process.env.FAULTLINE_KUBECTL ?? path.resolve(".data/tools/kubernetes-client/usr/bin/kubectl");

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** `kubectl kustomize dir`, parsed. */
export function kustomize(dir: string): KubeObject[] {
  const text = execFileSync(KUBECTL, ["kustomize", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return parseAllDocuments(text).map((doc) => doc.toJSON() as KubeObject);
}

// Where each kind's model lives: kubernetes-models/<group>/<version>/<Kind> (the core group is v1 alone).
function modelPath(apiVersion: string, kind: string): string {
  if (apiVersion.startsWith("monitoring.coreos.com/")) return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

type Model = new (data: unknown) => { validate(): void };

/** The schema's complaints about one object (empty when it validates), each naming the object. */
export async function schemaErrors(object: KubeObject): Promise<string[]> {
  const name = `${object.kind}/${object.metadata?.name}`;
  let model: Model;
  try {
    model = ((await import(modelPath(object.apiVersion, object.kind))) as Record<string, Model>)[object.kind];
  } catch {
    return [`${name}: no schema for ${object.apiVersion} ${object.kind}`];
  }
  try {
    new model(object).validate();
    return [];
  } catch (error) {
    return [`${name}: ${(error as Error).message}`];
  }
}

/** Fields no schema has, found by type-checking every object as a literal that `satisfies` its kind's interface. */
export function unknownFields(objects: KubeObject[]): string[] {
  const file = path.resolve("__rendered-manifests__.ts");
  const imports: string[] = [];
  const spans: { start: number; end: number; name: string }[] = [];
  let body = "";
  objects.forEach((object, i) => {
    imports.push(`import type { I${object.kind} as T${i} } from "${modelPath(object.apiVersion, object.kind)}";`);
    const head = `export const o${i} = `;
    const start = body.length + head.length;
    body += `${head}${JSON.stringify(object, null, 1)} satisfies T${i};\n`;
    spans.push({ start, end: body.length, name: `${object.kind}/${object.metadata?.name}` });
  });
  const prefix = `${imports.join("\n")}\n`;
  const text = prefix + body;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, version, ...rest) => (name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest));
  const fileExists = host.fileExists;
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = (d.start ?? 0) - prefix.length;
    const owner = spans.find((s) => at >= s.start && at < s.end)?.name ?? (d.file?.fileName === file ? "(imports)" : (d.file?.fileName ?? ""));
    return `${owner}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}
