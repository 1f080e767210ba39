// The one public message of every concealed error. Imports nothing, so the browser bundle of core/http can carry it
// (B1) and the error-code table below it can name it too.
export const GENERIC_MESSAGE = "The operation failed.";
