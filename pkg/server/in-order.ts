// Runs a list of middlewares as one express layer. Express's router pays per layer and request for
// path matching, parameter processing and a closure per `next`; the filters every request passes
// through gain nothing from that, so they run here in order with one `next`. Their contract is
// express's: a synchronous throw or a rejected promise goes to the error handlers as `next(err)`;
// `next('router')` leaves the list and lets express try the layers that follow it.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function inOrder(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let i = 0;
    const next = (err?: unknown): void => {
      if (err === 'router') return done();
      if (err !== undefined && err !== null) return done(err);
      const handler = handlers[i++];
      if (!handler) return done();
      try {
        const ret = handler(req, res, next) as unknown;
        if (ret instanceof Promise) ret.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
    };
    next();
  };
}
