/** The courseforge web console: sign-in, then the pages of the app shell. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./style.css";
import { del, get, whenSignedOut } from "./api.ts";
import { type Session, SignIn } from "./pages/sign-in.tsx";
import { navigate, usePath } from "./router.ts";
import { Routes } from "./routes.tsx";
import { Link, Loading } from "./ui.tsx";

const NAV = [
  ["/", "Courses"],
  ["/library", "Library"],
  ["/new", "New course"],
  ["/webhooks", "Webhooks"],
  ["/usage", "Usage"],
] as const;

function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => setSession(null));
    get<Session>("/v2/console/session").then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return <Loading what="the console" />;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  const signOut = async () => {
    await del("/v2/console/session").catch(() => {});
    setSession(null);
    navigate("/");
  };
  const section = `/${path.split("/")[1] ?? ""}`;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">courseforge</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <Link to={to} current={section === to || (to === "/" && section === "/courses")}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {session.user.external_id ?? session.user.user_id} · {session.tenant}
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Routes path={path} />
      </main>
    </>
  );
}

render(<App />, document.getElementById("root")!);
