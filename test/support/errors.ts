import { expect } from 'chai';
import type { ApiResponse } from './api';
import { ValidationError } from '../../src/domain/errors';

/** Asserts an error answer (CONTRACT part 3): status, code, a message and `data.status`. */
export function expectError(res: ApiResponse, status: number, code: string, where = ''): void {
  expect(res.status, `${where} ${JSON.stringify(res.body)}`).to.equal(status);
  expect(res.body, where).to.include({ code });
  expect(res.body.message, where).to.be.a('string').that.is.not.empty;
  expect(res.body.data, where).to.deep.include({ status });
}

/** A 400 `rest_invalid_param` naming exactly these parameters: every bad one, nothing else. */
export function expectInvalid(res: ApiResponse, ...params: string[]): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params).sort()).to.deep.equal([...params].sort());
}

/** A 400 `rest_missing_callback_param`: `missing` were not sent; `params` names them and any other bad one. */
export function expectMissing(res: ApiResponse, missing: string[], ...invalid: string[]): void {
  expectError(res, 400, 'rest_missing_callback_param');
  expect(res.body.message).to.equal(`Missing parameter(s): ${missing.join(', ')}`);
  expect(Object.keys(res.body.data.params).sort()).to.deep.equal([...missing, ...invalid].sort());
}

/** The parameters a ValidationError thrown by `fn` names (fails when `fn` throws nothing or another error). */
export function validationParams(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return (err as ValidationError).params;
  }
  throw new Error('expected a ValidationError');
}
