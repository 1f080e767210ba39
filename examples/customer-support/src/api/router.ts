import { deleteAccount, getCustomer } from "./customers.js";
import { recomputeLoyalty, health } from "./internal.js";
import { exportOrders, listOrders, refundOrder } from "./orders.js";

/** The application's oRPC router, served to its normal clients as usual. */
export const router = {
  customers: { get: getCustomer, delete: deleteAccount },
  orders: { list: listOrders, refund: refundOrder, export: exportOrders },
  internal: { recomputeLoyalty, health },
};
