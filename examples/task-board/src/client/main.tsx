import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import "./styles.css";

createRoot(document.getElementById("root")!).render(<App as={new URLSearchParams(location.search).get("as") ?? "u_ada"} />);
