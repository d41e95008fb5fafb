import type { ServiceError, ServiceErrorCode } from '../../contract/errors.js';

/** An error answered to the caller with its status and `{ Code, Message, Target? }` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    readonly target?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ServiceError {
    return this.target === undefined
      ? { Code: this.code, Message: this.message }
      : { Code: this.code, Message: this.message, Target: this.target };
  }
}

/** 422 with an array of errors, one per invalid field. */
export class ValidationError extends Error {
  readonly status = 422;
  constructor(readonly errors: ServiceError[]) {
    super(errors.map((e) => e.Message).join('; '));
    this.name = 'ValidationError';
  }
}

export const notFound = (code: ServiceErrorCode, message: string, target?: string) =>
  new ApiError(404, code, message, target);
export const forbidden = (code: ServiceErrorCode, message: string, target?: string) =>
  new ApiError(403, code, message, target);
export const invalid = (message: string, target?: string) =>
  new ValidationError([
    { Code: 'Error.Api.Validation', Message: message, ...(target ? { Target: target } : {}) },
  ]);
