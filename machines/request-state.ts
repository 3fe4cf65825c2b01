/**
 * The request state of the sign-in family, built once: invoke the actor, a `{ success: false }`
 * answer (isFailure) goes back to `retry` with its message, so does a transport failure; any other
 * answer takes the caller's own transitions. Where the message shows is the caller's choice: inline
 * (`setError`), in the snackbar (`notify`), or both. The machine using it registers `isFailure`
 * (./actor-results.ts), `setError` and `notify` (./system-actions.ts) in its setup.
 *
 *   verifying: otpSetup.createStateConfig(requestState({
 *     src: 'verifyOtp', description: 'The code is with the server.', input: verifyInput, retry: 'idle',
 *     refused: { message: OTP_FAILED }, failed: { message: OTP_FAILED },
 *     succeeded: [{ target: '#otpStep.verified', actions: { type: 'setToken', params: doneOutput } }],
 *   })),
 */
import { doneOutput } from './actor-results';

/** Where a message shows: under the form (`setError`) and/or in the snackbar (`notify`). */
export type MessageChannel = 'setError' | 'notify';

export interface RequestMessage<TParams> {
  /** The message (NotifyParams or a function of the done/error event that makes one). */
  message: TParams;
  /** Both unless said otherwise. */
  to?: readonly MessageChannel[];
}

const BOTH: readonly MessageChannel[] = ['setError', 'notify'];

function report<TParams>({ message, to = BOTH }: RequestMessage<TParams>) {
  return to.map((type) => ({ type, params: message }));
}

export function requestState<
  const TSrc extends string,
  TInput,
  const TRetry extends string,
  TRefused,
  TFailed,
  const TSucceeded extends readonly unknown[],
  const TTags extends readonly string[] = [],
>(spec: {
  /** The actor's name, also the child's id. */
  src: TSrc;
  description: string;
  input: TInput;
  tags?: TTags;
  /** The state a refusal or a failure goes back to. */
  retry: TRetry;
  /** A `{ success: false }` answer. */
  refused: RequestMessage<TRefused>;
  /** The actor rejected (the server unreachable). */
  failed: RequestMessage<TFailed>;
  /** The transitions of an accepted answer, in order. */
  succeeded: TSucceeded;
}) {
  return {
    description: spec.description,
    ...(spec.tags ? { tags: spec.tags } : {}),
    invoke: {
      id: spec.src,
      src: spec.src,
      input: spec.input,
      onDone: [
        { guard: { type: 'isFailure', params: doneOutput }, target: spec.retry, actions: report(spec.refused) },
        ...spec.succeeded,
      ],
      onError: { target: spec.retry, actions: report(spec.failed) },
    },
  } as const;
}
