import { createContext, useContext } from "react";

/** The per-request CSP nonce, handed from entry.server to the root's <Scripts>. Empty in the browser. */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
