console.log("a static file named like an output format");
