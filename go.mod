module github.com/dowse-go/dowse

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
