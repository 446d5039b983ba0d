import { jsx as _jsx, jsxs as _jsxs } from "react/jsx-runtime";
import { Text } from 'ink';
import Spinner from 'ink-spinner';
export function Progress({ label }) {
    return (_jsxs(Text, { children: [_jsx(Text, { color: "green", children: _jsx(Spinner, { type: "dots" }) }), ' ', label] }));
}
//# sourceMappingURL=spinner.js.map