package units

// Meter is a length.
type Meter int64

// Zero is no length.
const Zero Meter = 0
