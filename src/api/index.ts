export { createApiApp, API_BASE_PATH } from './create-api-app.js';
export { MAX_BODY_BYTES } from './parse-request.js';
export type { ApiServices } from './api-services.js';
export type { ApiErrorBody } from './error-response.js';
export type { ServerView } from './server-view.js';
export { errorStatus, statusForCode } from './error-status.js';
