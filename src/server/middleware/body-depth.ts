// Refuses JSON bodies nested deeper than any real request: services merge, clone and validate bodies
// recursively, and a body thousands of levels deep must be a 400, not a stack overflow.
import type { RequestHandler } from "express";
import { invalid } from "../../platform/app-error";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../../platform/json-depth";

export const bodyDepthGuard: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined && exceedsJsonDepth(req.body)) {
    next(invalid(`the request body nests more than ${MAX_JSON_DEPTH} levels deep`));
    return;
  }
  next();
};
