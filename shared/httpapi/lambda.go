package httpapi

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
)

// RoutesOf returns the routes a Lambda function serves.
func RoutesOf(function string) []Route {
	if function == CatchAll.Function {
		return []Route{CatchAll}
	}
	var out []Route
	for _, r := range Routes {
		if r.Function == function {
			out = append(out, r)
		}
	}
	return out
}

// LambdaHandler is an API Gateway HTTP API (payload 2.0) handler.
type LambdaHandler func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// NewLambdaHandler returns the handler of one function: a server that knows
// only that function's routes, behind the API Gateway v2 proxy adapter.
func NewLambdaHandler(d Deps, function string) (LambdaHandler, error) {
	routes := RoutesOf(function)
	if len(routes) == 0 {
		return nil, fmt.Errorf("httpapi: no route is served by function %q", function)
	}
	srv := NewFor(d, routes)
	if function == CatchAll.Function {
		// It knows every route only to tell 405 from 404; it serves none.
		srv = NewFor(d, Routes)
		srv.catchAll = true
	}
	adapter := httpadapter.NewV2(srv)
	return adapter.ProxyWithContext, nil
}
