import { createRoot } from "react-dom/client";
import "../../styles/popup.css";
import { Popup } from "./popup";

createRoot(document.getElementById("root")!).render(<Popup />);
