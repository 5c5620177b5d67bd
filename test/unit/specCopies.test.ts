import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/spec/ holds copies of the shared specification that code comments cite ("CONTRACT part N",
// "interface.md 4.2"); where the shared folder is at hand, the copies must be the same bytes.

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const COPIES = path.join(PROJECT_ROOT, 'docs', 'spec');
const SPEC_FILES = ['interface.md', 'CONTRACT.md', 'EXTENSIONS.md'];

/** The nearest `shared/spec` folder beside the repository or beside one of its parent folders. */
function sharedSpecFolder(): string | null {
  for (let dir = path.dirname(PROJECT_ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'spec');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

describe('docs/spec copies of the shared specification', () => {
  const shared = sharedSpecFolder();

  for (const file of SPEC_FILES) {
    if (shared) {
      it(`docs/spec/${file} is byte for byte ${path.join(shared, file)}`, () => {
        const copy = readFileSync(path.join(COPIES, file));
        const original = readFileSync(path.join(shared, file));
        expect(copy.equals(original), `docs/spec/${file} differs: copy ${path.join(shared, file)} again`).to.equal(
          true,
        );
      });
    } else {
      it(`docs/spec/${file} exists (comparison skipped: no shared/spec folder beside the repository)`, () => {
        expect(readFileSync(path.join(COPIES, file), 'utf8')).to.match(/^# /);
      });
    }
  }
});
