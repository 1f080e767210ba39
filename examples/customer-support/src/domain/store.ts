// The application's data: an in-memory store seeded with a few customers and orders. A real app would use its
// database here; nothing in this file knows about agents.

export type Customer = { id: string; name: string; email: string; phone: string; tier: "standard" | "gold"; deleted?: boolean };
export type Order = { id: string; customerId: string; totalCents: number; status: "paid" | "shipped" | "refunded"; items: string[] };
export type Refund = { id: string; orderId: string; amountCents: number; reason: string; approvedBy?: string; requestedBy: string };

export type Store = {
  customers: Map<string, Customer>;
  orders: Map<string, Order>;
  refunds: Refund[];
  /** How many times each effect ran: the demo and tests use it to prove "exactly once". */
  effects: { refunds: number; deletions: number };
};

export function createStore(): Store {
  const customers: Customer[] = [
    { id: "c_ada", name: "Ada Byron", email: "ada@example.com", phone: "+44 20 7946 0018", tier: "gold" },
    { id: "c_grace", name: "Grace Hopper", email: "grace@example.com", phone: "+1 202 555 0143", tier: "standard" },
  ];
  const orders: Order[] = [
    { id: "o_1001", customerId: "c_ada", totalCents: 4_500, status: "shipped", items: ["Notebook", "Pencil set"] },
    { id: "o_1002", customerId: "c_ada", totalCents: 32_000, status: "paid", items: ["Mechanical keyboard"] },
    { id: "o_2001", customerId: "c_grace", totalCents: 12_900, status: "shipped", items: ["Desk lamp"] },
  ];
  return {
    customers: new Map(customers.map((c) => [c.id, c])),
    orders: new Map(orders.map((o) => [o.id, o])),
    refunds: [],
    effects: { refunds: 0, deletions: 0 },
  };
}
