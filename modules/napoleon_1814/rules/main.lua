return { }
