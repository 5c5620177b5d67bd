import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TargetOutcome } from './targets';

/** One line of the table: a scenario measured on the API and on its baseline. */
export interface Row {
  scenario: string;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  baselineRps: number | null;
  /** API throughput over baseline throughput (or records/s over records/s for the reindex). */
  ratio: number | null;
  peakRssMb: number | null;
  notes: string;
}

export interface BenchReport {
  startedAt: string;
  machine: string;
  options: Record<string, unknown>;
  rows: Row[];
  targets: TargetOutcome[];
  details: Record<string, unknown>;
}

export function machineDescription(): string {
  const cpus = os.cpus();
  const gib = Math.round(os.totalmem() / 2 ** 30);
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${gib} GiB, ${os.platform()} ${os.release()}, Node ${process.version}; API, baseline, load generator, MongoDB (jongodb) and Elasticsearch on this one box`;
}

const HEADERS = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'ratio', 'peak RSS MB', 'notes'];

function cells(row: Row): string[] {
  const n = (value: number | null, digits = 0) => (value === null ? '–' : value.toFixed(digits));
  return [
    row.scenario,
    n(row.rps),
    n(row.p50),
    n(row.p99),
    n(row.baselineRps),
    n(row.ratio, 2),
    n(row.peakRssMb),
    row.notes,
  ];
}

export function textTable(rows: Row[]): string {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...table.map((line) => (line[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) =>
        i === 0 || i === values.length - 1 ? value.padEnd(widths[i] as number) : value.padStart(widths[i] as number),
      )
      .join('  ');
  return [
    line(HEADERS),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice().map((row) => line(cells(row))),
  ].join('\n');
}

export function markdown(report: BenchReport): string {
  const row = (values: string[]) => `| ${values.join(' | ')} |`;
  const lines = [
    row(HEADERS),
    row(HEADERS.map((_, i) => (i === 0 || i === HEADERS.length - 1 ? '---' : '---:'))),
    ...report.rows.map((r) => row(cells(r))),
  ];
  const targets = report.targets.map((t) => `- ${t.ok ? 'pass' : '**FAIL**'}: ${t.name} (measured ${t.measured})`);
  return [
    `Taken ${report.startedAt} on ${report.machine}.`,
    `Options: ${Object.entries(report.options)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}.`,
    '',
    ...lines,
    '',
    ...(targets.length > 0 ? ['Targets:', '', ...targets, ''] : []),
  ].join('\n');
}

/** Writes `bench-<time>.json/.md` and `latest.json/.md` under `dir`; returns the JSON path. */
export async function writeReport(dir: string, report: BenchReport): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const md = markdown(report);
  await Promise.all([
    writeFile(path.join(dir, `bench-${stamp}.json`), json),
    writeFile(path.join(dir, `bench-${stamp}.md`), md),
    writeFile(path.join(dir, 'latest.json'), json),
    writeFile(path.join(dir, 'latest.md'), md),
  ]);
  return path.join(dir, 'latest.json');
}
