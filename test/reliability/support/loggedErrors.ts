import type { Child } from './childProcess';
import { sleep, type Answer, type AnswerTo } from './http';

/** How long the API's log may take to reach the test after its answer. */
const LOG_WAIT_MS = 5_000;

/** pino's serialization of an error: causes are appended to message and stack ("caused by: …"). */
interface LoggedError {
  type?: string;
  message?: string;
  stack?: string;
  aggregateErrors?: LoggedError[];
  [prop: string]: unknown;
}

/** The error of a whole log line (a line still being written is no JSON yet). */
function parsedError(line: string): LoggedError | undefined {
  try {
    return (JSON.parse(line) as { err?: LoggedError }).err;
  } catch {
    return undefined;
  }
}

/** The error the API logged for the request answered by `res` (found by its X-Request-Id), once the log has it. */
export async function loggedError(child: Child, res: Answer): Promise<LoggedError | undefined> {
  const id = res.headers.get('x-request-id');
  if (!id) return undefined;
  const needle = `"requestId":"${id}"`;
  const find = () =>
    child
      .log()
      .split('\n')
      .filter((line) => line.includes(needle) && line.includes('"err":'))
      .map(parsedError)
      .find((err) => err !== undefined);
  const deadline = Date.now() + LOG_WAIT_MS;
  let found = find();
  while (!found && Date.now() < deadline) {
    await sleep(100);
    found = find();
  }
  return found;
}

function formatted(err: LoggedError, indent = '    '): string {
  const { type, message, stack, aggregateErrors, ...props } = err;
  const lines = [
    `${indent}error: ${type ?? '?'}: ${message ?? ''}`,
    `${indent}properties: ${JSON.stringify(props)}`,
    ...(stack ?? '').split('\n').map((line) => `${indent}  ${line}`),
    ...(aggregateErrors ?? []).map((inner, i) => `${indent}aggregated ${i}:\n${formatted(inner, `${indent}  `)}`),
  ];
  return lines.join('\n');
}

/** One paragraph per answer: the request, its status and body, and the error the API logged for it. */
export async function explainAnswers(child: Child, answers: AnswerTo[]): Promise<string> {
  const paragraphs = await Promise.all(
    answers.map(async (res) => {
      const err = await loggedError(child, res);
      return [
        `${res.request} -> ${res.status} ${JSON.stringify(res.body)} (X-Request-Id ${res.headers.get('x-request-id')})`,
        err ? formatted(err) : '    (no error logged for it)',
      ].join('\n');
    }),
  );
  return paragraphs.join('\n');
}
