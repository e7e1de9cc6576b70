package sub

func G() int { return "x" }
