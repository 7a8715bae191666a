import { Component, type ErrorInfo, type ReactNode } from 'react';
import { deleteSession } from '../../api/session.ts';
import { clearAuthFlag } from '../../session/authFlag.ts';
import { errorIdAt } from './errorId.ts';
import { markErrorRecovered, recordErrorLogEntry } from './errorLog.ts';
import { ErrorScreen } from './ErrorScreen.tsx';
import { clearForcedRenderError, ForcedRenderError } from './ForcedRenderError.tsx';
import { reportClientError } from './reportClientError.ts';

interface ErrorBoundaryState {
  failure: { message: string; errorId: string; context: string } | null;
}

/** Where the error happened, for the logs: the view's path, never its query or contents. */
function currentContext(): string {
  return `render ${window.location.pathname}`;
}

/** Ends the session (a failure is ignored), clears the browser flag and reloads: the gate returns. */
async function restartApp(): Promise<void> {
  try {
    await deleteSession();
  } catch {
    // Restarting must work even when the server cannot be reached.
  }
  clearAuthFlag();
  clearForcedRenderError();
  window.location.reload();
}

/**
 * Catches any rendering error below it and shows the error screen instead of a blank page
 * (spec section 2.2). Each error goes to the browser's error log and to the server log.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failure: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return {
      failure: {
        message: error instanceof Error ? error.message : '',
        errorId: errorIdAt(new Date()),
        context: currentContext(),
      },
    };
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    const failure = this.state.failure;
    if (failure === null) return;
    recordErrorLogEntry({
      id: failure.errorId,
      time: new Date().toISOString(),
      context: failure.context,
      recovered: false,
    });
    void reportClientError({
      errorId: failure.errorId,
      message: failure.message,
      context: failure.context,
      recovered: false,
    });
  }

  /** The failure Try Again is retrying, until the next commit shows whether the retry worked. */
  private retrying: NonNullable<ErrorBoundaryState['failure']> | null = null;

  private readonly tryAgain = (): void => {
    this.retrying = this.state.failure;
    clearForcedRenderError();
    this.setState({ failure: null });
  };

  override componentDidUpdate(): void {
    const retried = this.retrying;
    if (retried === null) return;
    this.retrying = null;
    // A retry that throws again shows a new error with its own id; this one stays unrecovered.
    if (this.state.failure !== null) return;
    markErrorRecovered(retried.errorId);
    void reportClientError({
      errorId: retried.errorId,
      message: retried.message,
      context: retried.context,
      recovered: true,
    });
  }

  override render(): ReactNode {
    const { failure } = this.state;
    if (failure !== null) {
      return (
        <ErrorScreen
          message={failure.message}
          errorId={failure.errorId}
          onTryAgain={this.tryAgain}
          onRestart={restartApp}
        />
      );
    }
    return (
      <>
        <ForcedRenderError />
        {this.props.children}
      </>
    );
  }
}
