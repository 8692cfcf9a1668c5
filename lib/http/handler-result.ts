import type { z } from 'zod';
import type { Problem } from './problem';
import type { OperationAnswers } from './operation';
import type { ApiResponse } from './respond';

/** The parts of an operation contract (developer or sign-in API) that say what it answers. */
interface AnswerContract {
  response?: z.ZodType;
  successStatus?: number;
  answers?: OperationAnswers;
}

/** The operation's success status (`defineOperation` makes an unset one 200). */
type SuccessStatusOf<TOp extends AnswerContract> = NonNullable<TOp['successStatus']>;

/**
 * The body of the success answer: what the response schema outputs, the shape the OpenAPI
 * document shows (it renders responses as output) and the contract test checks. The handler's
 * value goes out through `JSON.stringify` with no parse step, so it must already have that shape
 * (ISO strings, not Dates). A 204 answers no body; an operation that answers a body but declares
 * no schema gets `never`, so its route does not compile until the schema is written.
 */
export type SuccessBody<TOp extends AnswerContract> = [SuccessStatusOf<TOp>] extends [204]
  ? // biome-ignore lint/suspicious/noConfusingVoidType: a 204 handler returns nothing (`Promise<void>`), which `undefined` would refuse
    void
  : [NonNullable<TOp['response']>] extends [never]
    ? never
    : z.output<NonNullable<TOp['response']>>;

/** An answer's body: its own schema's output, or problem details for an answer described in words. */
type AnswerBody<TAnswer> = TAnswer extends { schema: infer TSchema extends z.ZodType } ? z.output<TSchema> : TAnswer extends string ? Problem : never;

type DeclaredAnswers<TOp extends AnswerContract> = NonNullable<TOp['answers']>;

/** `respond(status, body)` for each status the operation documents, with that status's body. */
type Responses<TOp extends AnswerContract> =
  | ApiResponse<SuccessStatusOf<TOp>, SuccessBody<TOp>>
  | { [TStatus in keyof DeclaredAnswers<TOp> & number]: ApiResponse<TStatus, AnswerBody<DeclaredAnswers<TOp>[TStatus]>> }[keyof DeclaredAnswers<TOp> & number];

/**
 * What a route handler may return for an operation: the success body, or `respond(status, body)`
 * with a documented status and that status's body. Anything else does not compile.
 */
export type HandlerResult<TOp extends AnswerContract> = SuccessBody<TOp> | Responses<TOp>;
