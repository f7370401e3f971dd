/** The API envelope of DESIGN §5: every answer but the OAuth token endpoint's uses it. */
export interface ApiEnvelope<T> {
  code: number;
  message: string;
  data: T;
}

/** A field named in a validation error, with its translated message. */
export interface FieldError {
  field: string;
  message: string;
}

export interface ApiErrorBody extends ApiEnvelope<null> {
  errors?: FieldError[];
}

export interface PageResult<T> {
  list: T[];
  total: number;
  currentPage: number;
  pageSize: number;
}

/** Body codes of spec §8: the session has ended and the user must sign in again. */
export const SESSION_ENDED_CODES = [50008, 50012, 50014] as const;
export const CODE = {
  ok: 200,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooManyRequests: 429,
  serverError: 500,
  /** Illegal token. */
  illegalToken: 50008,
  /** Signed in elsewhere / session revoked. */
  otherClientLoggedIn: 50012,
  /** Token expired. */
  tokenExpired: 50014,
} as const;

/** OAuth 2.0 error answer of the token endpoint (RFC 6749 §5.2). */
export interface OAuthError {
  error:
    | 'invalid_request'
    | 'invalid_client'
    | 'invalid_grant'
    | 'unsupported_grant_type'
    | 'invalid_scope'
    | 'unauthorized_client'
    | 'slow_down'
    /** The user has a second factor: send the same request again with totpCode. */
    | 'mfa_required'
    /** The user must set up a second factor first: mfa_ticket opens the enrolment. */
    | 'mfa_enrollment_required'
    /** Too many failed sign-ins for the account: send it again with the code of getSignInCaptcha. */
    | 'captcha_required';
  error_description: string;
  errors?: FieldError[];
  /** With mfa_enrollment_required: the ticket of /api/uaa/mfa/startEnrolment. */
  mfa_ticket?: string;
}
