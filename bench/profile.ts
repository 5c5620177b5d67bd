import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './world';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface ProfileSummary {
  file: string;
  seconds: number;
  /** Self time per function, busiest first (idle excluded from the percentages). */
  topFunctions: { frame: string; ms: number; percent: number }[];
  /** Self time per source: a project file or a package. */
  topSources: { source: string; ms: number; percent: number }[];
}

function sourceOf(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return url;
  // The bench runs the API compiled into its work folder: show the source path.
  return path.relative(PROJECT_ROOT, url.replace(/^file:\/\//, '')).replace(/^.*\/work-\d+\/build\//, '');
}

function summarise(file: string, profile: CpuProfile, top: number): ProfileSummary {
  const interval = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
  const byFrame = new Map<string, number>();
  const bySource = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const ms = (node.hitCount ?? 0) * interval;
    if (ms === 0 || node.callFrame.functionName === '(idle)') continue;
    busy += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const frame = `${functionName || '(anonymous)'} ${sourceOf(url)}:${lineNumber + 1}`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + ms);
    const source = functionName.startsWith('(') ? functionName : sourceOf(url);
    bySource.set(source, (bySource.get(source) ?? 0) + ms);
  }
  const ranked = <K extends string>(map: Map<string, number>, key: K) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, ms]) =>
          ({ [key]: name, ms: Math.round(ms), percent: Math.round((ms / busy) * 1000) / 10 }) as {
            [P in K]: string;
          } & { ms: number; percent: number },
      );
  return {
    file,
    seconds: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
    topFunctions: ranked(byFrame, 'frame'),
    topSources: ranked(bySource, 'source'),
  };
}

/** Summarises every .cpuprofile in `dir` (the API child's, written when it exits) and logs it. */
export async function summariseProfiles(dir: string, log: (line: string) => void, top = 25): Promise<ProfileSummary[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.cpuprofile'));
  const summaries: ProfileSummary[] = [];
  for (const name of files) {
    const profile = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as CpuProfile;
    const summary = summarise(path.join(dir, name), profile, top);
    summaries.push(summary);
    log(`CPU profile ${summary.file} (${summary.seconds} s)`);
    for (const s of summary.topSources.slice(0, 15)) log(`  ${String(s.percent).padStart(5)}%  ${s.source}`);
    log('  top functions (self time):');
    for (const f of summary.topFunctions) log(`  ${String(f.percent).padStart(5)}%  ${f.frame}`);
  }
  return summaries;
}
