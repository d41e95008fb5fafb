// The billing tags in JSX, with their properties and typed `onbilling-*` listeners.
/// <reference types="billing-elements/jsx/react" />
