/**
 * Decision links the app minted (`runtime.approvals.decisionLink` gives a token; the app builds the URL). A channel
 * shows a button only for a link it was given, only while the approval is pending, and only for an http(s) URL.
 */
export type DecisionLinks = { approve?: string; reject?: string };
