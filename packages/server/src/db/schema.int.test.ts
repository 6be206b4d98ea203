// db/schema.ts is written by hand for Kysely; this test reads it with the TypeScript compiler and
// compares every table and column with the migrated database (PGlite, and PostgreSQL in CI), so
// a migration without its types, or types without a migration, fail here instead of at run time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import ts from 'typescript';
import { sharedDb } from '../../test/support/database.ts';

type TypeClass = 'number' | 'string' | 'boolean' | 'date' | 'bytes' | 'json' | 'array';
interface DeclaredColumn {
  nullable: boolean;
  kind: TypeClass;
}

/** schema.ts and the files beside it that hold some of its tables (schema-calendar.ts). */
const schemaFiles = fs
  .readdirSync(import.meta.dirname)
  .filter((name) => /^schema(-[a-z]+)?\.ts$/.test(name))
  .map((name) => path.join(import.meta.dirname, name));

/** Table name -> column name -> what schema.ts declares. */
function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeNode>();
  for (const file of schemaFiles) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
      if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
    }
  }

  const classify = (node: ts.TypeNode): DeclaredColumn => {
    if (ts.isUnionTypeNode(node)) {
      const parts = node.types.filter(
        (t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
      );
      const inner = classify(parts[0] as ts.TypeNode);
      return { kind: inner.kind, nullable: parts.length < node.types.length || inner.nullable };
    }
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { kind: 'string', nullable: true };
      return { kind: ts.isNumericLiteral(node.literal) ? 'number' : 'string', nullable: false };
    }
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      if (name === 'Generated' || name === 'ColumnType')
        return classify(node.typeArguments?.[0] as ts.TypeNode);
      if (name === 'Date') return { kind: 'date', nullable: false };
      if (name === 'Buffer' || name === 'Uint8Array') return { kind: 'bytes', nullable: false };
      const alias = aliases.get(name);
      if (alias) return classify(alias);
    }
    switch (node.kind) {
      case ts.SyntaxKind.NumberKeyword:
        return { kind: 'number', nullable: false };
      case ts.SyntaxKind.StringKeyword:
        return { kind: 'string', nullable: false };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: 'boolean', nullable: false };
      case ts.SyntaxKind.ArrayType:
        return { kind: 'array', nullable: false };
      case ts.SyntaxKind.UnknownKeyword:
        return { kind: 'json', nullable: true };
    }
    throw new Error(`schema.ts: cannot classify ${node.getText()}`);
  };

  const database = interfaces.get('Database');
  assert.ok(database, 'schema.ts declares interface Database');
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const table = member.name.getText();
    const declaration = interfaces.get(member.type.typeName.getText());
    assert.ok(declaration, `schema.ts declares the interface of ${table}`);
    const columns = new Map<string, DeclaredColumn>();
    for (const column of declaration.members) {
      if (ts.isPropertySignature(column) && column.type)
        columns.set(column.name.getText(), classify(column.type));
    }
    tables.set(table, columns);
  }
  return tables;
}

const typeClassOf = (dataType: string): TypeClass => {
  if (/^(integer|bigint|smallint|numeric|real|double precision)$/.test(dataType)) return 'number';
  if (/^(text|character varying|character|uuid|inet)$/.test(dataType)) return 'string';
  if (dataType === 'boolean') return 'boolean';
  if (dataType.startsWith('timestamp') || dataType === 'date') return 'date';
  if (dataType === 'bytea') return 'bytes';
  if (dataType === 'jsonb' || dataType === 'json') return 'json';
  if (dataType === 'ARRAY') return 'array';
  throw new Error(`unexpected column type ${dataType}`);
};

test('schema.ts declares exactly the tables and columns the migrations create', async () => {
  const db = await sharedDb();
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
  }>`
    select table_name, column_name, data_type, is_nullable
    from information_schema.columns
    where table_schema = current_schema() and table_name not like 'schema_migrations%'
    order by table_name, ordinal_position
  `.execute(db);
  const actual = new Map<string, Map<string, { kind: TypeClass; nullable: boolean }>>();
  for (const row of rows) {
    const columns = actual.get(row.table_name) ?? new Map();
    columns.set(row.column_name, { kind: typeClassOf(row.data_type), nullable: row.is_nullable === 'YES' });
    actual.set(row.table_name, columns);
  }

  const declared = declaredTables();
  assert.deepEqual([...declared.keys()].sort(), [...actual.keys()].sort(), 'tables');
  for (const [table, columns] of actual) {
    const types = declared.get(table) ?? new Map();
    assert.deepEqual([...types.keys()].sort(), [...columns.keys()].sort(), `columns of ${table}`);
    for (const [column, real] of columns) {
      const want = types.get(column) as DeclaredColumn;
      // A JSON column reads as `unknown`, which includes null.
      if (real.kind === 'json') {
        assert.equal(want.kind, 'json', `${table}.${column} is JSON`);
        continue;
      }
      assert.deepEqual(want, real, `${table}.${column}`);
    }
  }
});
