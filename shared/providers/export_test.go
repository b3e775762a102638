package providers

// RivalPool lets the external tests check the invented rivals against the
// fictional pool.
var RivalPool = rivalPool
