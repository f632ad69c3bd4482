import { join } from 'node:path';
import ts from 'typescript';

// What `SameShape` promises is a compile error, so it is tested by compiling: a small program
// that ties a response class to a view, with the TypeScript compiler the build uses.
const SAME_SHAPE = join(__dirname, '../../../src/interfaces/http/openapi/same-shape.ts');

function errorsOf(snippet: string): string[] {
  const file = join(__dirname, '__shape_check__.ts');
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? `import { Holds, SameShape } from ${JSON.stringify(SAME_SHAPE.replace(/\.ts$/, ''))};\n${snippet}` : read(name));
  host.fileExists = ((exists) => (name: string) => name === file || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const VIEW = 'interface View { id: string; name: string; homePage?: string }';

describe('SameShape ties a response class to its view', () => {
  it('compiles when both have the same fields of fitting types', () => {
    expect(errorsOf(`${VIEW}\nclass R { id!: string; name!: string; homePage?: string }\nexport type T = Holds<SameShape<R, View>>;`)).toEqual([]);
  });

  it.each([
    ['a field only the view has', 'class R { id!: string }'],
    ['a field only the response class has', 'class R { id!: string; name!: string; homePage?: string; extra!: number }'],
    ['a view value the documented type does not admit', 'class R { id!: number; name!: string; homePage?: string }'],
  ])('fails to compile for %s', (_case, response) => {
    const errors = errorsOf(`${VIEW}\n${response}\nexport type T = Holds<SameShape<R, View>>;`);
    expect(errors).toEqual([expect.stringContaining("does not satisfy the constraint 'true'")]);
  });
});
