package units

// Temp is a temperature.
type Temp int32
