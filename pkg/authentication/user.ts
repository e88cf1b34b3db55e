// The user authentication establishes is the runtime's UserInfo, carried by every layer below.
export * from '../runtime/user.js';
