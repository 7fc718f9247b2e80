/**
 * A tool's inputSchema as form fields: strings, numbers, integers, booleans, enums and
 * arrays of those get their own control; anything else (objects, unions, arrays of
 * objects) is a JSON text area. Values are kept as the text typed, turned into
 * arguments only when the call is made, so a half-typed number is not lost.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'list' | 'json';

export interface SchemaField {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description?: string;
  readonly options?: readonly string[];
  /** list: the type of each item (one per line). */
  readonly itemKind?: 'string' | 'number' | 'integer' | 'boolean';
}

type Schema = Readonly<Record<string, unknown>>;

const PRIMITIVES = ['string', 'number', 'integer', 'boolean'] as const;
type Primitive = (typeof PRIMITIVES)[number];

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' && (PRIMITIVES as readonly string[]).includes(value);
}

function kindOf(schema: Schema): Pick<SchemaField, 'kind' | 'options' | 'itemKind'> {
  const options = schema['enum'];
  if (Array.isArray(options) && options.every((option) => typeof option === 'string'))
    return { kind: 'enum', options: options };
  const type = schema['type'];
  if (isPrimitive(type)) return { kind: type };
  const items = schema['items'];
  if (type === 'array' && items !== null && typeof items === 'object') {
    const itemType = (items as Schema)['type'];
    if (isPrimitive(itemType)) return { kind: 'list', itemKind: itemType };
  }
  return { kind: 'json' };
}

export function fieldsOf(inputSchema: unknown): SchemaField[] {
  if (inputSchema === null || typeof inputSchema !== 'object') return [];
  const schema = inputSchema as Schema;
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object') return [];
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  return Object.entries(properties as Record<string, unknown>).map(([name, raw]) => {
    const property = raw !== null && typeof raw === 'object' ? (raw as Schema) : {};
    const description = property['description'];
    return {
      name,
      required: required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...kindOf(property),
    };
  });
}

function scalar(text: string, kind: Primitive, label: string): unknown {
  if (kind === 'string') return text;
  if (kind === 'boolean') return text === 'true';
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`${label} must be a number`);
  if (kind === 'integer' && !Number.isInteger(value))
    throw new Error(`${label} must be a whole number`);
  return value;
}

function valueOf(field: SchemaField, text: string): unknown {
  switch (field.kind) {
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`${field.name} must be JSON`);
      }
    case 'list':
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => scalar(line, field.itemKind ?? 'string', field.name));
    case 'enum':
      return text;
    default:
      return scalar(text, field.kind, field.name);
  }
}

/** The call's arguments; an empty optional field is left out. Throws a user's message. */
export function argumentsOf(
  fields: readonly SchemaField[],
  values: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const text = values[field.name] ?? '';
    if (text === '' && field.kind !== 'boolean') {
      if (field.required) throw new Error(`${field.name} is required`);
      continue;
    }
    if (field.kind === 'boolean' && text === '' && !field.required) continue;
    args[field.name] = valueOf(field, text);
  }
  return args;
}
