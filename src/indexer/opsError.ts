/** A failure an operator can act on: its message is the one line the script prints (exit 1). */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** A mistake in the command line: one line with the usage (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The run was interrupted (Ctrl-C, an AbortSignal): nothing was swapped. */
export class InterruptedError extends OpsError {
  override name = 'InterruptedError';
}

/** Another reindex run holds the lease of an alias this one needs: nothing was changed. */
export class ReindexBusy extends OpsError {
  override name = 'ReindexBusy';
}

/** MongoDB or Elasticsearch could not be reached: nothing was checked or changed (exit 3). */
export class UnreachableError extends OpsError {
  override name = 'UnreachableError';
}

/** `-h` or `--help`: the usage is printed on stdout (exit 0). */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}
