import { ORPCError } from "@orpc/server";
import { z } from "zod";
import { agentMeta } from "@orpc-agent/core";
import { base } from "./base.js";

const maskEmail = (email: string) => email.replace(/^(.).*(@.*)$/, "$1***$2");

export const getCustomer = base
  .input(z.object({ customerId: z.string().describe("Customer id, e.g. c_ada") }))
  .meta(
    agentMeta({
      description: "Look up a customer profile by id.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "read",
      risk: "low",
      tags: ["customers"],
      retry: { maxAttempts: 2, backoffMs: 50 },
      // The model never sees contact details: emails are masked and phone numbers dropped.
      redact: {
        output: (output) => {
          const { phone: _phone, email, ...rest } = output as { phone: string; email: string };
          return { ...rest, email: maskEmail(email) };
        },
      },
    }),
  )
  .handler(({ input, context }) => {
    const customer = context.store.customers.get(input.customerId);
    if (!customer || customer.deleted) throw new ORPCError("NOT_FOUND", { message: `No customer ${input.customerId}.` });
    return { ...customer };
  });

export const deleteAccount = base
  .input(z.object({ customerId: z.string() }))
  .meta(
    agentMeta({
      description: "Permanently delete a customer account and its personal data.",
      expose: { aiSdk: true, mcp: true, direct: true },
      sideEffect: "destructive",
      risk: "critical",
      tags: ["customers"],
      // Four eyes: two approvers, neither of them the person asking (docs/guides/quorum-approvals.md).
      approval: { required: true, type: "data-protection", quorum: 2 },
    }),
  )
  .handler(({ input, context }) => {
    const customer = context.store.customers.get(input.customerId);
    if (!customer) throw new ORPCError("NOT_FOUND", { message: `No customer ${input.customerId}.` });
    context.store.effects.deletions++;
    customer.deleted = true;
    return { deleted: input.customerId };
  });
