import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Every project file the TypeScript compiler reaches from `entries` (what `node dist/...` loads). */
function reachable(entries: string[]): string[] {
  const { config } = ts.readConfigFile(path.join(PROJECT_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, PROJECT_ROOT);
  const program = ts.createProgram(
    entries.map((entry) => path.join(PROJECT_ROOT, entry)),
    { ...options, noEmit: true },
  );
  return program
    .getSourceFiles()
    .map((file) => path.relative(PROJECT_ROOT, file.fileName))
    .filter((file) => !file.startsWith('node_modules') && !file.startsWith('..'));
}

describe('the production graph', function () {
  this.timeout(60_000);

  it('node dist/src/app/main.js and dist/src/app/worker.js load none of the embedded development servers (which run useradd as root) nor the ops tools', () => {
    const files = reachable(['src/app/main.ts', 'src/app/worker.ts']);
    expect(files).to.include.members([
      'src/app/main.ts',
      'src/app/worker.ts',
      'src/app/apiProcess.ts',
      'src/app/server.ts',
    ]);
    expect(files.filter((file) => /^src\/(dev|tools)\/|^config\/embedded/.test(file))).to.deep.equal([]);
  });

  it('the development launchers (npm start, npm run worker) do reach them (the check above can fail)', () => {
    const files = reachable(['src/dev/start.ts', 'src/dev/worker.ts']);
    expect(files).to.include.members([
      'src/dev/embeddedServices.ts',
      'src/app/apiProcess.ts',
      'src/app/workerProcess.ts',
    ]);
  });
});
