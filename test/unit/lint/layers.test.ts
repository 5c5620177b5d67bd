import { expect } from 'chai';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function layerErrors(file: string, code: string): Promise<string[]> {
  // These files exist only as text, outside the TypeScript project: lint them without type information.
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  // A file ESLint cannot parse has no rule messages at all: that must not pass for "no error".
  expect(result.messages.filter((m) => m.fatal).map((m) => m.message)).to.deep.equal([]);
  return result.messages.filter((m) => m.ruleId === 'calendar/layers').map((m) => m.message);
}

describe('lint: the layers of src/ (lint/layers.mjs)', function () {
  this.timeout(60_000);

  it('refuses an import from a higher layer: a folder-level cycle cannot be written', async () => {
    const errors = await layerErrors(
      'src/domain/example.ts',
      "import { x } from '../http/types';\nexport const y = x;\n",
    );
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include('src/domain/ may not import from src/http/');
  });

  it('refuses re-exports and dynamic imports across layers too', async () => {
    const errors = await layerErrors(
      'src/storage/example.ts',
      "export { a } from '../services/container';\nexport const b = import('../indexer/syncWorker');\n",
    );
    expect(errors).to.have.length(2);
  });

  it('refuses a folder it does not know', async () => {
    const errors = await layerErrors(
      'src/newthing/example.ts',
      "import { x } from '../domain/kinds';\nexport const y = x;\n",
    );
    expect(errors[0]).to.include('not a known layer');
  });

  it('accepts imports that point down, within a folder, and of config/', async () => {
    const code = [
      "import { a } from '../storage/stores';",
      "import { b } from './list';",
      "import { c } from '../../config';",
      'export const d = [a, b, c];',
      '',
    ].join('\n');
    expect(await layerErrors('src/services/example.ts', code)).to.deep.equal([]);
  });
});
