/** The tenant's usage this month: operations, cost, and a test key's allowances. */
import { get } from "../api.ts";
import { ErrorNote, Loading, PageTitle, TableHead, TableWrap, useLoad } from "../ui.tsx";

interface Usage {
  period: { start: string; end: string };
  operations: { operation: string; events: number; quantity: number; amount_usd: number }[];
  total_usd: number;
  test_key_limits: { courses: { used: number; limit: number }; queries: { used: number; limit: number } } | null;
}

const usd = (n: number) => `$${n.toFixed(4)}`;

export function Usage() {
  const usage = useLoad(() => get<Usage>("/v2/usage"), []);
  const u = usage.data;
  return (
    <>
      <PageTitle text="Usage this month" />
      <ErrorNote error={usage.error} />
      {usage.loading && !u && <Loading what="usage" />}
      {u && (
        <>
          <p class="muted">
            {new Date(u.period.start).toLocaleDateString()} to {new Date(u.period.end).toLocaleDateString()} (UTC month)
          </p>
          <TableWrap label="Usage by operation">
            <table>
              <TableHead columns={["Operation", "Requests", "Quantity", "Amount"]} />
              <tbody>
                {u.operations.map((o) => (
                  <tr key={o.operation}>
                    <td>{o.operation}</td>
                    <td>{o.events}</td>
                    <td>{o.quantity}</td>
                    <td>{usd(o.amount_usd)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    Total
                  </th>
                  <td>{usd(u.total_usd)}</td>
                </tr>
              </tfoot>
            </table>
          </TableWrap>
          {u.test_key_limits && (
            <section aria-labelledby="limits">
              <h2 id="limits">Test key allowances</h2>
              <ul>
                <li>
                  Courses: {u.test_key_limits.courses.used} of {u.test_key_limits.courses.limit}
                </li>
                <li>
                  Queries: {u.test_key_limits.queries.used} of {u.test_key_limits.queries.limit}
                </li>
              </ul>
            </section>
          )}
        </>
      )}
    </>
  );
}
