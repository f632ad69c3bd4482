/**
 * A response class describes in OpenAPI what a controller sends, which is a view of the
 * application or the domain (decisions.md, Response shapes). The two are tied at compile time:
 * `export type BrandShape = Holds<SameShape<BrandResponse, BrandView>>` fails to compile when a
 * field is in one and not the other, or when the view's value does not fit the documented type.
 */
export type SameShape<Response, View> = [Exclude<keyof Response, keyof View>, Exclude<keyof View, keyof Response>] extends [never, never]
  ? [View] extends [Response]
    ? true
    : false
  : false;

/** Compiles only when `T` is `true`. */
export type Holds<T extends true> = T;
