package mockname

// Names dowse would give its own helpers, declared by the package.
func dowseRecordCall() {}

var dowseCallsOf = 1

type dowseFormatArg struct{}
